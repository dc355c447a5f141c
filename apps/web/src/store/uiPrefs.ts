/** Layout preferences that outlive a reload (the bottom panel's height), apart from the designs. */
const KEY = 'retry-studio.ui.v1';

export interface UiPrefs {
  bottomHeight?: number;
}

export function readUiPrefs(): UiPrefs {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as UiPrefs;
    return typeof v === 'object' && v ? v : {};
  } catch {
    return {};
  }
}

export function writeUiPrefs(patch: UiPrefs): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...readUiPrefs(), ...patch }));
  } catch {
    /* storage full or disabled: the height lasts this visit */
  }
}

/**
 * A big design's lint (with its validation errors) and stated fate, off the page (offPage.ts asks): the same functions the page
 * runs for a small design. A 5,000-queue file's lint held the page 0.7-0.8 s, its stated fate (a
 * budget run, lint included) 0.9 s more.
 */
import type { Design } from '@retry-studio/topology-core/model';
import { statedFate, type StatedFate } from '@retry-studio/topology-core/templates';
import { designLint, type DesignLint } from './lintView';

export type DesignAsk =
  | { readonly id: number; readonly kind: 'lint'; readonly design: Design; readonly nodes: number | undefined }
  | { readonly id: number; readonly kind: 'fate'; readonly design: Design };

export type DesignAnswer =
  | { readonly id: number; readonly kind: 'lint'; readonly lint: DesignLint }
  | { readonly id: number; readonly kind: 'fate'; readonly fate: StatedFate | null };

self.onmessage = (e: MessageEvent<DesignAsk>) => {
  const ask = e.data;
  if (ask.kind === 'lint')
    self.postMessage({
      id: ask.id,
      kind: 'lint',
      lint: designLint(ask.design, ask.nodes),
    } satisfies DesignAnswer);
  else self.postMessage({ id: ask.id, kind: 'fate', fate: stated(ask.design) } satisfies DesignAnswer);
};

function stated(design: Design): StatedFate | null {
  try {
    return statedFate(design) ?? null;
  } catch {
    return null;
  }
}

/** A size in bytes for people: "512 B", "3.2 kB", "140 MB", "2.1 GB" (decimal units, as `--max-memory 1GB` reads them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  if (bytes < 1e6) return `${+(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${+(bytes / 1e6).toFixed(1)} MB`;
  if (bytes < 1e12) return `${+(bytes / 1e9).toFixed(1)} GB`;
  return `${+(bytes / 1e12).toFixed(1)} TB`;
}

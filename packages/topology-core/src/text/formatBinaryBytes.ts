/** A size in bytes for people, in binary units (KiB, MiB, GiB) as RabbitMQ's own tools print them: "512 B", "7.4 MiB", "1.25 GiB". */
export function formatBinaryBytes(b: number): string {
  const x = Math.round(b);
  if (Math.abs(x) < 1024) return `${x} B`;
  if (Math.abs(x) < 1024 ** 2) return `${+(x / 1024).toFixed(1)} KiB`;
  if (Math.abs(x) < 1024 ** 3) return `${+(x / 1024 ** 2).toFixed(1)} MiB`;
  return `${+(x / 1024 ** 3).toFixed(2)} GiB`;
}

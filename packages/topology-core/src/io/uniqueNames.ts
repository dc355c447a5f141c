/**
 * Identifiers for formats that restrict names (Kubernetes metadata.name, Terraform resource
 * names, AsyncAPI ids): RabbitMQ names are mapped through `sanitize`, cut to `maxLength`,
 * and made unique with a numeric suffix.
 */
export class UniqueNames {
  private readonly used = new Set<string>();
  constructor(
    private readonly sanitize: (s: string) => string,
    private readonly maxLength: number,
  ) {}

  /** A new unique identifier for `raw`. */
  take(raw: string): string {
    const base = this.sanitize(raw).slice(0, this.maxLength);
    let name = base;
    for (let n = 2; this.used.has(name); n++) {
      const suffix = `-${n}`;
      name = this.sanitize(`${base.slice(0, this.maxLength - suffix.length)}${suffix}`);
    }
    this.used.add(name);
    return name;
  }
}

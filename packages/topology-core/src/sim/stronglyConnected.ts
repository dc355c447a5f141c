/**
 * Strongly connected components (Tarjan, iterative: a 10,000-queue file has no call stack for
 * recursion) of a graph given by its nodes and a successor function. Components come out in
 * reverse topological order: every component after the components it reaches.
 */
export function stronglyConnected(nodes: readonly string[], next: (n: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let i = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const frames: { n: string; succ: readonly string[]; k: number }[] = [{ n: root, succ: next(root), k: 0 }];
    index.set(root, i);
    low.set(root, i++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const f = frames[frames.length - 1]!;
      if (f.k < f.succ.length) {
        const w = f.succ[f.k++]!;
        if (!index.has(w)) {
          index.set(w, i);
          low.set(w, i++);
          stack.push(w);
          onStack.add(w);
          frames.push({ n: w, succ: next(w), k: 0 });
        } else if (onStack.has(w)) low.set(f.n, Math.min(low.get(f.n)!, index.get(w)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.n, Math.min(low.get(parent.n)!, low.get(f.n)!));
      if (low.get(f.n) === index.get(f.n)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== f.n);
        out.push(comp);
      }
    }
  }
  return out;
}

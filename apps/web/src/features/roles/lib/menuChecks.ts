import type { MenuNode } from '@portal/contracts';

/** Parent of each code in a menu tree. */
export function parentsOf(tree: MenuNode[]): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  const walk = (nodes: MenuNode[], parent: string | null) => {
    for (const n of nodes) {
      parents.set(n.code, parent);
      walk(n.children, n.code);
    }
  };
  walk(tree, null);
  return parents;
}

function find(tree: MenuNode[], code: string): MenuNode | undefined {
  for (const n of tree) {
    if (n.code === code) return n;
    const inner = find(n.children, code);
    if (inner) return inner;
  }
  return undefined;
}

function descendants(node: MenuNode): string[] {
  return node.children.flatMap((c) => [c.code, ...descendants(c)]);
}

/**
 * Ticking an entry of a role's menu. A screen is a thing of its own (the list can be given without its buttons), so
 * ticks are not conducted down; but a button or a sub-screen needs its screen, so ticking one ticks its ancestors,
 * and unticking a screen unticks what lies under it.
 */
export function toggle(tree: MenuNode[], checked: ReadonlySet<string>, code: string, on: boolean): Set<string> {
  const next = new Set(checked);
  if (on) {
    const parents = parentsOf(tree);
    for (let c: string | null | undefined = code; c; c = parents.get(c)) next.add(c);
  } else {
    next.delete(code);
    const node = find(tree, code);
    if (node) for (const d of descendants(node)) next.delete(d);
  }
  return next;
}

/** Screens shown half-checked: ticked, with some but not all of what lies under them ticked. */
export function halfChecked(tree: MenuNode[], checked: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      const under = descendants(n);
      if (checked.has(n.code) && under.length > 0 && !under.every((d) => checked.has(d))) out.push(n.code);
      walk(n.children);
    }
  };
  walk(tree);
  return out;
}

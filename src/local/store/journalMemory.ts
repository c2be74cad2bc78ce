// The journal's in-memory state: changes take effect here when commit() is called (journal.ts), watchers
// hear of each one, and a failed write undoes them. Kept apart from the writer loop, which owns the disk.
import { apply, type State } from './journalFormat';

/** Told of every change of a collection's key, as it takes effect and again when a failed write undoes it. */
export type JournalWatcher = (key: string, value: unknown, previous: unknown) => void;

/** What one record replaced, to undo it. */
export interface Undo {
  c: string;
  k: string;
  previous: unknown;
}

export class JournalMemory {
  private readonly watchers = new Map<string, JournalWatcher[]>();

  constructor(readonly state: State) {}

  watch(collection: string, watcher: JournalWatcher): void {
    const list = this.watchers.get(collection);
    if (list) list.push(watcher);
    else this.watchers.set(collection, [watcher]);
  }

  /** Sets one key, tells the watchers, and returns how to undo it. */
  set(c: string, k: string, value: unknown): Undo {
    const previous = this.state.get(c)?.get(k);
    apply(this.state, c, k, value);
    for (const watcher of this.watchers.get(c) ?? []) watcher(k, value, previous);
    return { c, k, previous };
  }

  /** Undoes commits (each a list of Undo, oldest commit first), newest change first. */
  undo(commits: ReadonlyArray<readonly Undo[]>): void {
    for (const commit of [...commits].reverse()) for (const u of [...commit].reverse()) this.set(u.c, u.k, u.previous);
  }

  /** A copy of the state without the changes of `queued` commits (not yet durable). */
  copyWithout(queued: ReadonlyArray<readonly Undo[]>): State {
    const copy: State = new Map();
    for (const [name, map] of this.state) copy.set(name, new Map(map));
    for (const commit of [...queued].reverse()) for (const u of [...commit].reverse()) apply(copy, u.c, u.k, u.previous);
    for (const [name, map] of copy) if (map.size === 0) copy.delete(name);
    return copy;
  }
}

// Which "Connection: <name>" run profiles to add, relabel and remove when the connection list changed. No
// vscode import: the unit tests check it with plain lists.

export interface LabelledConnection {
  id: string;
  label: string;
}

export interface ProfilePlan {
  add: LabelledConnection[];
  relabel: LabelledConnection[];
  remove: string[];
}

/** `current`: the profiles there are, by connection id, with their labels; `wanted`: one per connection now. */
export function planProfiles(current: ReadonlyMap<string, string>, wanted: readonly LabelledConnection[]): ProfilePlan {
  const ids = new Set(wanted.map((w) => w.id));
  return {
    add: wanted.filter((w) => !current.has(w.id)),
    relabel: wanted.filter((w) => current.has(w.id) && current.get(w.id) !== w.label),
    remove: [...current.keys()].filter((id) => !ids.has(id)),
  };
}

// Knowledge-base values on the wire that both the client (src/api) and the local service (src/local) check.

/** Sort orders of the knowledge-base node search. */
export const NODE_ORDERS = ['name_asc', 'name_desc', 'updated_at_asc', 'updated_at_desc', 'created_at_asc', 'created_at_desc'] as const;
/** Access levels of a permission group or agent on an uploaded node. */
export const ACCESS_TYPES = ['order_1_editor', 'order_2_reader'] as const;

export type NodeOrder = (typeof NODE_ORDERS)[number];
export type AccessType = (typeof ACCESS_TYPES)[number];

/** How many messages a page of history holds. */
export const PAGE_SIZE = 50;

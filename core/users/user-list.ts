/**
 * The admin user list's page size, orders and search limit (docs/decisions/024-admin-users.md),
 * shared by the service (core/users/user-admin.ts) and the page's form. Pure: no database.
 */
export const USERS_PAGE_SIZE = 25
export const USER_SORTS = ['newest', 'oldest', 'name'] as const
export type UserSort = (typeof USER_SORTS)[number]
export const USER_SEARCH_MAX = 200

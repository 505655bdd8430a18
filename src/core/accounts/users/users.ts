// The user verbs, one per file; imported from here by the rest of the code and by the tests.
export { addUser } from './add-user'
export { findUserById, findUserByName, userWithId } from './find-user'
export { listUsers } from './list-users'
export { filesLostText, filesLostWith, type RemovedUser, removeUser } from './remove-user'
export { setPassword } from './set-password'
export { setQuota } from './set-quota'
export { setUserState } from './set-user-state'
export { limitsOf } from './limits'

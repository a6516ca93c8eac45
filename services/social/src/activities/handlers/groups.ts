/**
 * Groups: Create Group, Join, Leave, and Add/Remove on a group's circles. `Reject { to: <group>,
 * object: <user> }` (the client library's rejectJoinRequest) is a Remove of a pending user.
 */
import type { AreaHandlers } from '../registry';
import { createGroup } from './groups/create';
import { joinGroup, leaveGroup } from './groups/join';
import { addToGroup, removeFromGroup } from './groups/membership';

export const groupHandlers: AreaHandlers = {
  create: { Group: createGroup },
  add: { group: addToGroup },
  remove: { group: removeFromGroup },
  types: { Join: joinGroup, Leave: leaveGroup, Reject: removeFromGroup },
};

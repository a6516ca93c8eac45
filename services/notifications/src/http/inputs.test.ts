import { isNotificationId, parseTypes, parseUnread, pathUserId } from './inputs';

describe('parseTypes', () => {
  test('comma lists and repeated parameters', () => {
    expect(parseTypes('reply, react,reply')).toEqual(['reply', 'react']);
    expect(parseTypes(['reply', 'follow'])).toEqual(['reply', 'follow']);
    expect(parseTypes(undefined)).toBeUndefined();
    expect(parseTypes('')).toBeUndefined();
    expect(parseTypes(',')).toBeUndefined();
  });
  test('unknown types and operator objects are a 400 naming the field', () => {
    expect(() => parseTypes('reply,bogus')).toThrow(/^types: unknown notification type 'bogus'/);
    expect(() => parseTypes({ $ne: 'x' })).toThrow(/^types: /);
    expect(() => parseTypes(['reply', { $gt: '' }])).toThrow(/^types: /);
  });
});

describe('parseUnread', () => {
  test('true lists unread only; false or absent lists all; anything else is refused', () => {
    expect(parseUnread('true')).toBe(true);
    expect(parseUnread('1')).toBe(true);
    expect(parseUnread(undefined)).toBe(false);
    expect(parseUnread('false')).toBe(false);
    expect(() => parseUnread({ $ne: 1 })).toThrow(/^unread: /);
    expect(() => parseUnread('yes')).toThrow(/^unread: /);
  });
});

describe('path ids', () => {
  test('a bare username is a local user; handles are lower-cased', () => {
    expect(pathUserId('alice', 'social.test')).toBe('@alice@social.test');
    expect(pathUserId('@Alice@Social.Test', 'social.test')).toBe('@alice@social.test');
    expect(pathUserId('post:1@social.test', 'social.test')).toBeNull();
    expect(pathUserId('a/b', 'social.test')).toBeNull();
  });
  test('notification ids have the minted shape', () => {
    expect(isNotificationId('notification:0123456789abcdef01234567@social.test')).toBe(true);
    expect(isNotificationId('{"$ne":null}')).toBe(false);
    expect(isNotificationId('notification:xyz@social.test')).toBe(false);
  });
});

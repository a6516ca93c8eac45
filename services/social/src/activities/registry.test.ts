import { activityEventName, isEventName } from '@agora/common/messaging';
import { HANDLERS } from './registry';

describe('the activity registry and the event catalogue', () => {
  test('every registered activity type has its `activity.<type>` event in the catalogue', () => {
    const types = [...HANDLERS.keys()];
    expect(types.length).toBeGreaterThan(10);
    for (const type of types)
      expect({ type, known: isEventName(activityEventName(type)) }).toEqual({ type, known: true });
  });
});

import { normaliseRules, prepareValue } from './write';

describe('normaliseRules', () => {
  test('drops entries without text, trims, keeps plain unique ids, mints the others', () => {
    const rules = normaliseRules(
      [
        { id: 'kind', text: ' Be **kind** ' },
        { id: 'empty', text: '  ' },
        { id: 'none' },
        { text: null },
        '',
        'A plain rule',
        { id: 'kind', text: 'Duplicate id' },
        { id: 'not an id!', text: 'Odd id' },
      ],
      'rules',
    );
    expect(rules.map((r) => r.text)).toEqual(['Be **kind**', 'A plain rule', 'Duplicate id', 'Odd id']);
    expect(rules[0]).toEqual({ id: 'kind', text: 'Be **kind**', html: '<p>Be <strong>kind</strong></p>' });
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.slice(1).every((id) => /^[A-Za-z0-9_-]+$/.test(id) && id !== 'kind')).toBe(true);
  });

  test('html is sanitised to the rules allow-list', () => {
    const [rule] = normaliseRules(
      ['# Title <script>x()</script> [a](javascript:alert(1)) ![i](http://x/i.png)'],
      'rules',
    );
    expect(rule!.html).not.toMatch(/<h1|<script|javascript:|<img/);
  });

  test('wrong types are a 400 naming the field', () => {
    expect(() => normaliseRules('no', 'rules')).toThrow(/rules/);
    expect(() => normaliseRules([{ text: 5 }], 'rules')).toThrow(/rules\.0/);
    expect(() => normaliseRules([7], 'rules')).toThrow(/rules\.0/);
    expect(() => prepareValue({ name: 'rules', ui: { type: 'rules' } }, {})).toThrow(/rules/);
  });
});

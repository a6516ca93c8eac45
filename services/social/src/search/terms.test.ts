import { fold, queryTerms, termsOf } from './terms';

test('text is folded and split into prefixes of 2 to 15 characters', () => {
  const terms = termsOf(['Crème Brûlée at the Café'], []);
  expect(terms).toEqual(
    expect.arrayContaining(['cr', 'cre', 'creme', 'br', 'brulee', 'ca', 'cafe', 'at', 'the']),
  );
  expect(terms).not.toContain('c');
  expect(fold('ÉCOLE')).toBe('ecole');
  expect(termsOf(['Internationalisation'])).toContain('international');
  expect(termsOf(['Internationalisation'])).not.toContain('internationalisation');
});

test('tags give #-prefixed terms that plain words do not', () => {
  const terms = termsOf(['sunset'], ['#Photography']);
  expect(terms).toEqual(expect.arrayContaining(['#ph', '#photography', 'sunset']));
  expect(terms).not.toContain('photography');
});

test('queries: words folded and cut to the longest indexed prefix; bad input is a 400', () => {
  expect(queryTerms('Café  CREME')).toEqual(['cafe', 'creme']);
  expect(queryTerms('#Photo')).toEqual(['#photo']);
  expect(queryTerms('internationalisation')).toEqual(['internationalis']);
  expect(() => queryTerms('')).toThrow('q: search query is required');
  expect(() => queryTerms('a')).toThrow(/at least 2/);
  expect(() => queryTerms('x'.repeat(101))).toThrow(/at most 100/);
  expect(() => queryTerms(['a', 'b'])).toThrow(/required/);
  expect(() => queryTerms({ $ne: null })).toThrow(/required/);
});

import { hashtagsOf } from './index';

describe('hashtagsOf: the tags the renderer links', () => {
  test.each([
    ['Planting day #garden #Tomatoes_2026', ['garden', 'tomatoes_2026']],
    ['#garden twice: #garden and #GARDEN', ['garden']],
    ['**#bold** and _#em_ and [a link #inside](https://x.test)', ['bold', 'em']],
    ['not tags: #1 or a#b or &#35;x or `#code`', []],
    ['```\n#fenced\n```\nthen #after', ['after']],
    ['', []],
  ])('%j', (source, tags) => {
    expect(hashtagsOf(source)).toEqual(tags);
  });
});

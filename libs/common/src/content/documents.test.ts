import { BadRequest } from '../errors';
import { parseInput } from '../validation';
import {
  newPage,
  newPost,
  newReply,
  pageChanges,
  pageInput,
  pagePatchInput,
  postChanges,
  postInput,
  postPatchInput,
  replyChanges,
  replyInput,
  wantedSlug,
} from './index';

const origin = (id: string) => ({
  id,
  author: { id: '@ann@a.test', type: 'Person', name: 'Ann', icon: '', url: '', server: '@a.test' },
  server: '@a.test',
  publicUrl: 'https://a.test',
});
const everyone = { to: '@public', canReply: '@public', canReact: '@a.test' };
const at = new Date('2026-01-02T03:04:05.000Z');

describe('posts', () => {
  it('builds the stored post: rendered body, summary, defaults, audiences', () => {
    const input = parseInput(postInput(), { source: { content: 'Hello **world**' }, tags: [' news '] });
    expect(newPost(input, origin('post:1@a.test'), everyone, { publishedAt: at })).toEqual({
      id: 'post:1@a.test',
      type: 'Note',
      actorId: '@ann@a.test',
      actor: origin('x').author,
      server: '@a.test',
      url: 'https://a.test/posts/post:1@a.test',
      title: undefined,
      summary: 'Hello world',
      source: { content: 'Hello **world**', mediaType: 'text/markdown' },
      body: '<p>Hello <strong>world</strong></p>\n',
      href: undefined,
      image: undefined,
      tags: ['news'],
      attachments: [],
      media: [],
      contentWarning: '',
      sensitive: false,
      location: undefined,
      to: '@public',
      canReply: '@public',
      canReact: '@a.test',
      group: null,
      publishedAt: at,
    });
  });

  it('sanitises what the markdown renders', () => {
    const input = parseInput(postInput(), {
      content: '<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>',
    });
    const body = newPost(input, origin('post:2@a.test'), everyone).body;
    expect(body).not.toMatch(/<script|href="javascript|onerror/);
  });

  it('an event, a place and a group audience', () => {
    const input = parseInput(postInput(), {
      type: 'Event',
      title: 'Meet',
      startTime: '2026-05-01T10:00:00Z',
      location: { name: 'Park', lat: 1, lon: 2 },
    });
    const post = newPost(input, origin('post:3@a.test'), { ...everyone, to: 'group:g@a.test' });
    expect(post).toMatchObject({
      event: { startDate: new Date('2026-05-01T10:00:00Z') },
      location: { name: 'Park', type: 'Point', coordinates: [2, 1] },
      group: 'group:g@a.test',
    });
  });

  it.each([
    [{}, 'a post needs content'],
    [{ type: 'Link', title: 'x' }, 'href: a Link post needs href'],
    [{ type: 'Event', title: 'x' }, 'startTime: an Event needs startTime'],
    [{ content: 'x', image: 'javascript:alert(1)' }, 'image'],
    [{ content: 'x', tags: [''] }, 'tags.0'],
  ])('refuses %j', (body, message) => {
    expect(() => parseInput(postInput(), body, 'object')).toThrow(message);
  });

  it('a writer may narrow the types and refuse files', () => {
    const announcements = postInput({ types: ['Note', 'Article'], attachments: false });
    expect(() => parseInput(announcements, { type: 'Event', content: 'x' })).toThrow(BadRequest);
    expect(() => parseInput(announcements, { content: 'x', attachments: ['file:1@a.test'] })).toThrow(
      'attachments: files cannot be attached here',
    );
    expect(parseInput(announcements, { content: 'x' }).type).toBe('Note');
  });

  it('an edit renders the body again, keeps what was not given, and checks the result', () => {
    const patch = parseInput(postPatchInput(), { source: 'Now _this_' });
    expect(postChanges(patch, { type: 'Note' }, { to: 'group:g@a.test' })).toEqual({
      source: { content: 'Now _this_', mediaType: 'text/markdown' },
      body: '<p>Now <em>this</em></p>\n',
      summary: 'Now this',
      to: 'group:g@a.test',
      group: 'group:g@a.test',
    });
    expect(() => postChanges({ type: 'Link' }, { type: 'Note' }, {}, 'object')).toThrow(
      'object.href: a Link post needs href',
    );
    expect(postChanges({ title: 'T' }, { type: 'Link', href: 'https://x.test' })).toEqual({ title: 'T' });
  });
});

describe('pages', () => {
  it('builds the stored page under the slug the caller chose', () => {
    const input = parseInput(pageInput, { title: 'About us', source: '# Who' });
    expect(newPage(input, origin('page:1@a.test'), everyone, 'about-us')).toMatchObject({
      id: 'page:1@a.test',
      type: 'Page',
      title: 'About us',
      slug: 'about-us',
      body: '<h1>Who</h1>\n',
      summary: 'Who',
      order: 0,
      parentId: null,
      tags: [],
      url: 'https://a.test/pages/about-us',
      actorId: '@ann@a.test',
      to: '@public',
    });
  });

  it('a page needs a title and content; a folder needs no content', () => {
    expect(() => parseInput(pageInput, { source: 'x' })).toThrow('title');
    expect(() => parseInput(pageInput, { title: 'x' })).toThrow('source: a page needs content');
    expect(parseInput(pageInput, { title: 'x', type: 'Folder' }).type).toBe('Folder');
  });

  it('slugs fall back to `page`; a new slug moves the address unless an href is given', () => {
    expect(wantedSlug('Über uns!')).toBe('uber-uns');
    expect(wantedSlug('日本')).toBe('page');
    const patch = parseInput(pagePatchInput, { title: 'T' });
    expect(pageChanges(patch, { publicUrl: 'https://a.test', slug: 't' })).toEqual({
      title: 'T',
      slug: 't',
      url: 'https://a.test/pages/t',
    });
    expect(pageChanges({ href: 'https://elsewhere.test/p' }, { publicUrl: 'https://a.test' })).toEqual({
      url: 'https://elsewhere.test/p',
    });
  });
});

describe('replies', () => {
  it('builds the stored reply in its thread', () => {
    const input = parseInput(replyInput, { content: 'Yes *indeed*' });
    expect(
      newReply(input, origin('reply:1@a.test'), { target: 'post:1@a.test', parent: 'post:1@a.test' }),
    ).toEqual({
      id: 'reply:1@a.test',
      actorId: '@ann@a.test',
      actor: origin('x').author,
      server: '@a.test',
      url: 'https://a.test/posts/reply:1@a.test',
      target: 'post:1@a.test',
      parent: 'post:1@a.test',
      source: { content: 'Yes *indeed*', mediaType: 'text/markdown' },
      body: '<p>Yes <em>indeed</em></p>\n',
      contentWarning: '',
      sensitive: false,
    });
  });

  it('a reply is never empty, made or edited', () => {
    expect(() => parseInput(replyInput, { content: '  ' })).toThrow('a reply needs content');
    expect(() => replyChanges({ source: ' ' }, 'object')).toThrow('object.source: a reply needs content');
    expect(replyChanges({})).toEqual({});
  });
});

import type { Request } from 'express';
import { templateRouteOf } from './http';

const req = (method: string, originalUrl: string) => ({ method, originalUrl, url: originalUrl }) as Request;

describe('route template of a request', () => {
  const routeOf = templateRouteOf(() => [
    { methods: ['GET'], path: '/users/:id' },
    { methods: ['GET'], path: '/users/me' },
    { methods: ['POST'], path: '/posts/:id/reactions' },
    { methods: ['GET'], path: '/a.b' },
  ]);

  it('names the template, literal segments before parameters, HEAD as GET', () => {
    expect(routeOf(req('GET', '/users/u_123?x=1'))).toBe('/users/:id');
    expect(routeOf(req('GET', '/users/me'))).toBe('/users/me');
    expect(routeOf(req('HEAD', '/users/me'))).toBe('/users/me');
    expect(routeOf(req('POST', '/posts/p1/reactions'))).toBe('/posts/:id/reactions');
  });

  it('answers `unmatched` for any other path or method, so raw URLs never become labels', () => {
    expect(routeOf(req('DELETE', '/users/u_123'))).toBe('unmatched');
    expect(routeOf(req('GET', '/users/u_123/extra'))).toBe('unmatched');
    expect(routeOf(req('GET', '/aXb'))).toBe('unmatched');
    expect(routeOf(req('GET', `/${'x'.repeat(50)}`))).toBe('unmatched');
  });
});

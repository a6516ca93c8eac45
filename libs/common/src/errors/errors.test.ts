import { BadRequest, NotFound, toHttpError } from '.';

test('AppErrors keep their status and message; unknown errors become a generic 500', () => {
  expect(toHttpError(new BadRequest('username: required'))).toMatchObject({
    status: 400,
    message: 'username: required',
    internal: false,
  });
  expect(toHttpError(new NotFound())).toMatchObject({ status: 404, message: 'Not found' });
  expect(toHttpError(new Error('secret internals at /srv/x.ts:12'))).toEqual({
    status: 500,
    message: 'Internal server error',
    internal: true,
  });
  expect(toHttpError({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 413 });
  expect(toHttpError({ type: 'entity.parse.failed', status: 400 })).toMatchObject({
    status: 400,
    message: 'Invalid JSON body',
  });
  expect(toHttpError({ name: 'MongoServerSelectionError', message: 'x' })).toMatchObject({ status: 503 });
});

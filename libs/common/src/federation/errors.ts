/**
 * Typed failures of outbound federation fetches. The message is safe to show a client: it never
 * names the address a host resolved to (that would turn the error into an internal DNS oracle);
 * the internal detail travels as `cause` for the log.
 */
import { UpstreamError } from '../errors';

export type SafeFetchFailure =
  | 'invalid_url'
  | 'forbidden_address'
  | 'unresolvable'
  | 'bad_redirect'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'network';

const STATUS_AND_MESSAGE: Record<SafeFetchFailure, [number, string]> = {
  invalid_url: [400, 'Only http and https URLs can be fetched'],
  // A name refused by policy (it resolves to a private address) and a name that does not resolve
  // read exactly alike, status included: otherwise the answer tells which internal names exist.
  // Both are the caller's doing (an id naming no usable server), hence a 4xx, not a 502.
  forbidden_address: [422, 'Remote server unreachable'],
  unresolvable: [422, 'Remote server unreachable'],
  bad_redirect: [502, 'Remote server redirected to an unusable URL'],
  too_many_redirects: [502, 'Remote server redirected too many times'],
  too_large: [502, 'Remote response too large'],
  timeout: [504, 'Remote server timed out'],
  network: [502, 'Remote server unreachable'],
};

export class SafeFetchError extends UpstreamError {
  constructor(
    readonly reason: SafeFetchFailure,
    cause?: unknown,
  ) {
    const [status, message] = STATUS_AND_MESSAGE[reason];
    super(status, message);
    if (cause !== undefined) this.cause = cause;
  }
}

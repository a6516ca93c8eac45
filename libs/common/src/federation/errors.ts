/**
 * Typed failures of outbound federation fetches. The message is safe to show a client: it never
 * names the address a host resolved to (that would turn the error into an internal DNS oracle);
 * the internal detail travels as `cause` for the log.
 */
import { UpstreamError } from '../errors';

export type SafeFetchFailure =
  | 'invalid_url'
  | 'forbidden_address'
  | 'bad_redirect'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'network';

const STATUS_AND_MESSAGE: Record<SafeFetchFailure, [number, string]> = {
  invalid_url: [400, 'Only http and https URLs can be fetched'],
  forbidden_address: [502, 'Remote address not allowed'],
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

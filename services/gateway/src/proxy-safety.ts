/**
 * What the gateway keeps of http-proxy-middleware's default plugins (it ejects them, proxy.ts):
 * socket errors are swallowed (the `error` hook answers the request; an unhandled socket error
 * would crash the process) and a response whose client went away destroys its upstream response
 * (streams such as Server-Sent Events end upstream too). Left out on purpose: the default debug
 * plugin, which prints a misleading "[HPM] Connection reset … req.body" to stderr on every reset
 * (the gateway re-sends the parsed body itself), and the default logger (a no-op here: proxy
 * errors are logged by the `error` hook with the request id).
 */
import { definePlugin } from 'http-proxy-middleware';

const ignore = (): void => {};

export const proxySafetyPlugin = definePlugin((proxyServer) => {
  proxyServer.on('proxyReq', (_proxyReq, _req, socket) => {
    (socket as unknown as NodeJS.EventEmitter).on('error', ignore);
  });
  proxyServer.on('proxyRes', (proxyRes, _req, res) => {
    res.on('close', () => {
      if (!res.writableEnded) proxyRes.destroy();
    });
  });
  proxyServer.on('open', (proxySocket) => proxySocket.on('error', ignore));
  proxyServer.on('econnreset', ignore);
});

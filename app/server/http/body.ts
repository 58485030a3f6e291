import type { IncomingMessage } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { BodyScanner, bodyRule, declaredTooLarge, type BodyRule, type Refusal, type RequestLimits } from "~/lib/request-limits";
import { getOperator } from "../auth/operator.server";
import { lookupSession } from "../auth/session.server";
import { pipelineState } from "./state";

// The one body-limit step (decision 016): every body is bounded by its route class before
// anything parses it. A declared length over the limit is refused without reading a byte; a
// streamed body is counted as the action reads it (countedBody). Anonymous work is bounded too:
// the large limits (images) are for requests with a live session only, so a body over the form
// limit from anyone else is refused before it is read, and a streamed one at the form limit.

export function hasBody(req: IncomingMessage) {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/** The body step: the route's rule (narrowed for anonymous senders) and the declared-length check. */
export function bodyLimits(limits: RequestLimits) {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!hasBody(req)) return next();
    try {
      const state = pipelineState(res);
      closeAfterAnswer(req, res);
      let rule = bodyRule(req.path, req.headers["content-type"], limits);
      if (rule.maxBytes > limits.formBytes && !(await hasLiveSession(req))) rule = { ...rule, name: `${rule.name} (anonymous)`, maxBytes: limits.formBytes };
      state.bodyRule = rule;
      if (declaredTooLarge(req.headers["content-length"], rule)) state.refusal ??= { status: 413, reason: "too_large" };
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** A student or operator session that is live (an indexed read or two; only for bodies over the form limit). */
async function hasLiveSession(req: ExpressRequest) {
  const cookie = req.headers.cookie;
  if (!cookie) return false;
  const request = () => new Request("http://session.invalid/", { method: "POST", headers: { Cookie: cookie } });
  const lookup = await lookupSession(request());
  if (lookup.state === "active") return true;
  // A rider's delivery photo comes with the operator's cookie only.
  return (await getOperator(request())) !== null;
}

// How long a connection whose body nobody reads stays open after the answer.
const LINGER_MS = 500;

/**
 * A body left unread (refused, or not wanted by the route) is never read on: once the answer is
 * out, the socket stops reading (the excess waits in the client's own buffers, flow control stops
 * it) and after LINGER_MS the connection is closed. Closing at once would reset it while the
 * client still writes, and the client could lose the answer; discarding what arrives would cost
 * the server the very work the limit saves.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ExpressResponse) {
  const state = pipelineState(res);
  if (state.lingering) return;
  state.lingering = true;
  const socket = req.socket as IncomingMessage["socket"] & { destroySoon?: () => void };
  let timer: NodeJS.Timeout | undefined;
  const linger = () => {
    if (timer) return;
    socket.pause();
    timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
  // Node ends a "Connection: close" exchange with socket.destroySoon() right after the answer,
  // which resets a connection with unread bytes: our side is closed (FIN) and it lingers instead.
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function destroyAfterLinger(this: typeof socket) {
    if (req.complete) return destroySoon?.call(this);
    this.end();
    linger();
  };
  res.on("finish", () => {
    if (!req.complete) linger();
  });
}

/**
 * The request body as the action reads it, counted on the way (BodyScanner): bytes against the
 * route's limit, multipart parts, JSON nesting. At the first refusal the stream errors and
 * reading stops; nothing past the limit is read or kept.
 */
export function countedBody(req: IncomingMessage, rule: BodyRule, limits: RequestLimits, refuse: (refusal: Refusal) => void) {
  const scanner = new BodyScanner(rule, req.headers["content-type"], limits);
  let stopped = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (stopped) return;
          const bytes = new Uint8Array(chunk);
          const refusal = scanner.push(bytes);
          if (refusal) {
            stopped = true;
            req.pause();
            refuse(refusal);
            controller.error(new Error(`request body refused: ${refusal.reason}`));
            return;
          }
          controller.enqueue(bytes);
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on("end", () => {
          if (stopped) return;
          stopped = true;
          controller.close();
        });
        req.on("error", (error) => {
          if (stopped) return;
          stopped = true;
          controller.error(error);
        });
        req.pause();
      },
      pull() {
        if (!stopped) req.resume();
      },
      cancel() {
        stopped = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

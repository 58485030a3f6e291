import { createRequestHandler, redirect, writeReadableStreamToWritable, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { loginPath } from "~/lib/redirect";
import type { RequestLimits } from "~/lib/request-limits";
import { StoredCredentialsRejected } from "../school/types";
import { refusalResponse } from "./bounds-answer";
import { countedBody, hasBody } from "./body";
import { pipelineState } from "./state";

// The bridge to Remix: what @remix-run/express does, with the body read through the body step's
// counter (and none once refused), and the route modules' loaders and actions wrapped so that
// the guard's answer to a data request and a body refusal reach them in the shape Remix encodes.

/** The web Request of an Express request (made once: the guard and Remix read the same one). */
export function remixRequest(req: ExpressRequest, res: ExpressResponse, limits: RequestLimits): Request {
  const state = pipelineState(res);
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = Number.parseInt(hostPort ?? "", 10);
  const url = new URL(`${req.protocol}://${req.hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`);
  let controller: AbortController | null = new AbortController();
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD" && !state.refusal) {
    init.body = hasBody(req) ? countedBody(req, state.bodyRule!, limits, (refusal) => (state.refusal ??= refusal)) : null;
    init.duplex = "half";
  }
  // Abort loaders and actions once no response can be written (close without finish).
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new Request(url.href, init);
}

/**
 * A body that is not what an action reads (JSON or text to a form, a broken multipart body, no
 * body at all) makes request.formData()/json() throw. That is the sender's fault: 400 with a
 * message instead of a 500. Only these parse errors are translated; any other error stays a 500.
 */
function isBodyError(error: unknown) {
  const BODY_ERRORS = [/^Content-Type was not one of/, /^Failed to parse body as FormData/, /^Could not parse content as FormData/, /^malformed multipart-form data/];
  if (error instanceof SyntaxError) return /JSON/.test(error.message);
  return error instanceof Error && BODY_ERRORS.some((pattern) => pattern.test(error.message));
}

type Args = { request: Request; context?: AppLoadContext };

/**
 * The domain's errors that every route answers the same way, as their HTTP answer: the school
 * rejected the stored credentials (any page that asks the school) → the login page, saying why.
 */
export function domainErrorAnswer(error: unknown): unknown {
  if (error instanceof StoredCredentialsRejected) return redirect(loginPath(error.returnTo, "credentials"));
  return error;
}

/**
 * The build with every loader and action behind the guard's data-request answer and answering the
 * domain's errors (domainErrorAnswer), and every action behind the body refusal.
 */
export function guardedBuild(original: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(original.routes)) {
    const { action, loader } = route.module;
    if (typeof action !== "function" && typeof loader !== "function") {
      routes[id] = route;
      continue;
    }
    const module = { ...route.module };
    if (typeof loader === "function") {
      module.loader = (async (args: Args & Parameters<typeof loader>[0]) => {
        if (args.context?.accessRedirect) throw redirect(args.context.accessRedirect);
        try {
          return await loader(args);
        } catch (error) {
          throw domainErrorAnswer(error);
        }
      }) as typeof loader;
    }
    if (typeof action === "function") {
      module.action = (async (args: Args & Parameters<typeof action>[0]) => {
        if (args.context?.accessRedirect) throw redirect(args.context.accessRedirect);
        const refused = () => args.context?.bodyRefusal?.() ?? null;
        const pathname = () => new URL(args.request.url).pathname;
        if (refused()) throw refusalResponse(pathname(), refused()!);
        let result: unknown;
        try {
          result = await action(args);
        } catch (error) {
          if (refused()) throw refusalResponse(pathname(), refused()!);
          if (isBodyError(error)) throw refusalResponse(pathname(), { status: 400, reason: "too_deep" });
          throw domainErrorAnswer(error);
        }
        // The action may have handled the broken body itself: the refusal still wins.
        if (refused()) throw refusalResponse(pathname(), refused()!);
        // A rate-limited action's Retry-After reaches the browser on a document request too, where
        // Remix sends the page's headers instead of the action's.
        if (result instanceof Response && result.status === 429 && args.context) args.context.retryAfter = result.headers.get("Retry-After") ?? undefined;
        return result;
      }) as typeof action;
    }
    routes[id] = { ...route, module };
  }
  return { ...original, routes };
}

/** The last step: Remix answers with the pipeline's load context. */
export function remixHandler(build: ServerBuild) {
  const handle = createRequestHandler(guardedBuild(build), "production");
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const state = pipelineState(res);
      const context: AppLoadContext = {
        nonce: state.nonce,
        clientIp: state.client ?? "unknown",
        accessRedirect: state.accessRedirect,
        bodyRefusal: () => state.refusal ?? null,
      };
      const response = await handle(state.webRequest!, context);
      if (res.headersSent) {
        await response.body?.cancel();
        return;
      }
      if (response.status === 429 && context.retryAfter && !response.headers.has("Retry-After")) res.setHeader("Retry-After", context.retryAfter);
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      next(error);
    }
  };
}

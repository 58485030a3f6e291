// A component that uses the router's <Form> and <Link> rendered to plain HTML on the server, for
// parts of a page that need no script of their own: the page shows the HTML (its forms and links
// then work as plain HTML, with or without JavaScript) and does not ship the component's code.
// The order page uses it for the notifications issue's subscribe card (the same component, no fork).
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server.js";

export async function renderStaticHtml(element: ReactElement, url: string): Promise<string> {
  const handler = createStaticHandler([{ path: "*", element }]);
  const context = await handler.query(new Request(new URL(url, "http://static.render")));
  if (context instanceof Response) return "";
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

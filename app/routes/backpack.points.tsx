import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { UnderConstruction } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { requireStudent } from "~/server/auth/session.server";

const msg = { app: appMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.points} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStudent(request);
  return null;
}

export default function Screen() {
  return <UnderConstruction title={msg.titles.points} back="/backpack" />;
}

import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

export const meta = () => [{ title: "reference" }];

export async function loader() {
  const items = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, title: `条目 ${i + 1}`, body: `第 ${i + 1} 条的内容` }));
  return json({ items });
}

export default function Index() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>reference</h1>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <strong>{item.title}</strong> {item.body}
          </li>
        ))}
      </ul>
    </main>
  );
}

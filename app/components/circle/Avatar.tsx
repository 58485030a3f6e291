import { Icon } from "~/components/icons";

type AvatarAuthor = { anonymous: boolean; name: string; avatar: string | null };

const SIZES = { sm: "h-8 w-8 text-sm", md: "h-10 w-10 text-base" } as const;

/** The author's avatar, the first character of the name, or for anonymous content the masked face. */
export function Avatar({ author, size = "md" }: { author: AvatarAuthor; size?: keyof typeof SIZES }) {
  const box = `${SIZES[size]} shrink-0 rounded-full`;
  if (author.anonymous) {
    // The anonymous face: the same for every anonymous author, nothing of the person in it.
    return (
      <span className={`${box} flex items-center justify-center bg-slate-700 text-white`} role="img" aria-label={author.name}>
        <Icon name="user" className="h-3/5 w-3/5" />
      </span>
    );
  }
  if (author.avatar) return <img src={author.avatar} alt="" className={`${box} object-cover`} loading="lazy" referrerPolicy="no-referrer" />;
  return (
    <span className={`${box} flex items-center justify-center bg-brand-soft font-semibold text-brand`} aria-hidden="true">
      {author.name.slice(0, 1)}
    </span>
  );
}

/** The student's own avatar at the top of 背包 and 个人资料: the picture, or the first character of the name. */
export function ProfileAvatar({ src, name }: { src: string | null; name: string }) {
  return src ? (
    <img src={src} alt="" className="h-16 w-16 rounded-full object-cover" />
  ) : (
    <div className="flex h-16 w-16 items-center justify-center rounded-full bg-brand-soft text-2xl font-semibold text-brand" aria-hidden="true">
      {name.slice(0, 1)}
    </div>
  );
}

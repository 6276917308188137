import { useState } from 'react';

/** Initials on a colour derived from the name: stands in for artwork that is absent or does not load. */
function Placeholder({ name }: { name: string }) {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');
  return (
    <span className={`artwork placeholder hue-${hash % 8}`} aria-hidden="true">
      {initials}
    </span>
  );
}

/**
 * A track's artwork. Decorative (alt=""): the title and artist are next to it. Loaded without a
 * referrer, lazily, from wherever the source keeps it.
 */
export function Artwork({ url, name, size = 64 }: { url: string | null | undefined; name: string; size?: number }) {
  const [broken, setBroken] = useState(false);
  if (!url || broken) return <Placeholder name={name} />;
  return (
    <img
      className="artwork"
      src={url}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

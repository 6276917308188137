import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The width of an element in CSS pixels, kept current as it resizes: charts draw at their real
 * size, so their text stays readable on a phone instead of being scaled down with the drawing.
 */
export function useContainerWidth<T extends HTMLElement>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = (): void => {
      const w = Math.floor(element.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

import { useEffect, useRef, useState } from 'react'

const DURATION_MS = 1000

/**
 * The value, moving from the previous one over one second (ease-out), or at once for people
 * who asked for reduced motion. The server and the first client render show the final value.
 */
export function useAnimatedNumber(target: number): number {
  const [shown, setShown] = useState(target)
  const fromRef = useRef(target)

  useEffect(() => {
    const from = fromRef.current
    fromRef.current = target
    if (from === target) return
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
      setShown(target)
      return
    }
    let frame = 0
    const start = performance.now()
    const step = (now: number) => {
      const progress = Math.min(1, (now - start) / DURATION_MS)
      const eased = 1 - (1 - progress) ** 3
      setShown(from + (target - from) * eased)
      if (progress < 1) frame = requestAnimationFrame(step)
    }
    frame = requestAnimationFrame(step)
    return () => cancelAnimationFrame(frame)
  }, [target])

  return shown
}

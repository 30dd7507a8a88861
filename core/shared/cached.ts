/**
 * A value loaded once and kept until invalidated; concurrent callers share one load, and a
 * failed load is not kept (the next call tries again).
 */
export function cached<T>(load: () => Promise<T>) {
  let current: Promise<T> | null = null
  return {
    get(): Promise<T> {
      if (!current) {
        const loading = load()
        current = loading
        loading.catch(() => {
          if (current === loading) current = null
        })
      }
      return current
    },
    invalidate() {
      current = null
    },
  }
}

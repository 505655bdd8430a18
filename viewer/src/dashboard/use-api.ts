/**
 * The two ways a page reads the API: one value (`useLoad`), and a list paged by the API's cursor (`usePages`).
 * Both read again when their `inputs` change, keep what they have on screen meanwhile, and drop an answer
 * that arrives after a newer read started, so a slow answer never overwrites a fresher one.
 */
import { type Dispatch, type StateUpdater, useEffect, useRef, useState } from 'preact/hooks'
import { errorText } from './api'

type Failure = {
  /** What to say when the failure is not the API's (offline is the API's: it says so itself). */
  failure: string
  /** Told every failure's message too, e.g. to show it as a notice. */
  onError?: (message: string) => void
}

/** The latest render's value, for callbacks that outlive it (a timer, an answer on its way). */
function useLatest<T>(value: T) {
  const ref = useRef(value)
  ref.current = value
  return ref
}

export type Loaded<T> = {
  /** null until the first answer. */
  value: T | null
  loading: boolean
  /** Why the last read failed; '' once one succeeded. */
  error: string
  /** Replaces the value: the answer to a change, or an optimistic one. */
  set: Dispatch<StateUpdater<T | null>>
  /** Reads again, e.g. after a change elsewhere; the value stays until the answer replaces it. */
  reload: () => Promise<void>
}

/** `data` of one API answer, read when the page opens and again whenever `inputs` change. */
export function useLoad<T>(read: () => Promise<{ data: T }>, inputs: readonly unknown[], options: Failure): Loaded<T> {
  const [value, set] = useState<T | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState('')
  const latest = useLatest({ read, options })
  const reads = useRef(0)

  const reload = async () => {
    const mine = ++reads.current
    setLoading(true)
    try {
      const { data } = await latest.current.read()
      if (mine !== reads.current) return // a newer read answers instead
      set(() => data)
      setError('')
    } catch (failure) {
      if (mine !== reads.current) return
      const message = errorText(failure, latest.current.options.failure)
      setError(message)
      latest.current.options.onError?.(message)
    } finally {
      if (mine === reads.current) setLoading(false)
    }
  }
  useEffect(() => void reload(), inputs)

  return { value, loading, error, set, reload }
}

export type Pages<T> = {
  /** Every item of the pages read so far; null until the first page. */
  items: T[] | null
  /** The first page: on its way, arrived, or failed (a failed `more` leaves it as it was). */
  status: 'loading' | 'ready' | 'failed'
  /** Why the last read (first page or more) failed; '' once one succeeded. */
  error: string
  hasMore: boolean
  loadingMore: boolean
  /** Appends the next page. */
  more: () => Promise<void>
  /** Reads the first page again (the items stay until it arrives). */
  reload: () => Promise<void>
  /** Puts a changed item in the place of the one with its id. */
  replace: (item: T) => void
  /** Puts a new item first. */
  prepend: (item: T) => void
}

/**
 * A list the API pages with `?cursor=` and `nextCursor`: the first page when the page opens and whenever
 * `inputs` change (after `delay` ms, so a search is sent once the typing pauses), then `more()`. An answer
 * to an older query (the search typed on meanwhile) is dropped.
 */
export function usePages<T extends { id: string }>(
  read: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>,
  inputs: readonly unknown[],
  options: Failure & { moreFailure?: string; delay?: number },
): Pages<T> {
  const [items, setItems] = useState<T[] | null>(null)
  const [cursor, setCursor] = useState<string | null>(null)
  const [status, setStatus] = useState<Pages<T>['status']>('loading')
  const [error, setError] = useState('')
  const [loadingMore, setLoadingMore] = useState(false)
  const latest = useLatest({ read, options })
  /** Counts the first-page reads: an answer is used only while its query is the newest. */
  const queries = useRef(0)

  const fail = (failure: unknown, fallback: string) => {
    const message = errorText(failure, fallback)
    setError(message)
    latest.current.options.onError?.(message)
  }

  const reload = async () => {
    const mine = ++queries.current
    setStatus('loading')
    try {
      const page = await latest.current.read(undefined)
      if (mine !== queries.current) return // a newer query answers instead
      setItems(page.data)
      setCursor(page.nextCursor)
      setError('')
      setStatus('ready')
    } catch (failure) {
      if (mine !== queries.current) return
      setStatus('failed')
      fail(failure, latest.current.options.failure)
    }
  }

  useEffect(() => {
    const delay = latest.current.options.delay ?? 0
    if (delay <= 0) return void reload()
    const timer = setTimeout(reload, delay)
    return () => clearTimeout(timer)
  }, inputs)

  const more = async () => {
    // The cursor belongs to the list on screen: while another query's first page is coming, it leads nowhere.
    if (!cursor || status === 'loading') return
    const mine = queries.current
    setLoadingMore(true)
    try {
      const page = await latest.current.read(cursor)
      if (mine !== queries.current) return
      setItems((current) => [...(current ?? []), ...page.data])
      setCursor(page.nextCursor)
      setError('')
    } catch (failure) {
      if (mine !== queries.current) return
      const { moreFailure, failure: first } = latest.current.options
      fail(failure, moreFailure ?? first)
    } finally {
      setLoadingMore(false)
    }
  }

  return {
    items,
    status,
    error,
    hasMore: cursor !== null,
    loadingMore,
    more,
    reload,
    replace: (item) => setItems((current) => current?.map((each) => (each.id === item.id ? item : each)) ?? null),
    prepend: (item) => setItems((current) => [item, ...(current ?? [])]),
  }
}

/** A due delivery that may be sent next: whose it is (`ownerId`) and where it goes (`targetId`: a webhook, a channel). */
export type FairCandidate = { id: string; targetId: string; ownerId: string }

/**
 * Up to `free` of the candidates (given oldest first), round the owners in the order of their oldest one, each
 * turn an owner's next target in turn, skipping targets with `perTarget` deliveries in flight already (`busy`)
 * or taken in this share. One owner's pile, however old, gets one turn a round like everyone else's.
 */
export function fairShare(candidates: FairCandidate[], free: number, perTarget: number, busy: ReadonlyMap<string, number>): string[] {
  const owners = new Map<string, Map<string, string[]>>()
  for (const candidate of candidates) {
    const targets = owners.get(candidate.ownerId) ?? new Map<string, string[]>()
    owners.set(candidate.ownerId, targets)
    targets.set(candidate.targetId, [...(targets.get(candidate.targetId) ?? []), candidate.id])
  }
  const taken = new Map<string, number>()
  const chosen: string[] = []
  const queues = [...owners.values()].map((targets) => [...targets.entries()])
  for (let progress = true; chosen.length < free && progress; ) {
    progress = false
    for (const queue of queues) {
      if (chosen.length >= free) break
      // This owner's next target that may take one more.
      for (let turn = 0; turn < queue.length; turn++) {
        const [targetId, ids] = queue.shift()!
        queue.push([targetId, ids])
        const inFlight = (busy.get(targetId) ?? 0) + (taken.get(targetId) ?? 0)
        if (ids.length === 0 || inFlight >= perTarget) continue
        chosen.push(ids.shift()!)
        taken.set(targetId, (taken.get(targetId) ?? 0) + 1)
        progress = true
        break
      }
    }
  }
  return chosen
}

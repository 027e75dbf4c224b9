/**
 * A response body serialized ahead of time. EGV responses are assembled from per-day JSON so that
 * a 90-day window (26,000 records) is not mapped and stringified record by record on every request.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

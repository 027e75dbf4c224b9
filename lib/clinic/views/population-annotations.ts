import "server-only";
import { latestReviews } from "../domain/reviews";
import { patientTagsOfClinic, tagOf } from "../domain/tags";
import type { PopulationRow } from "./population-model";

/**
 * The population rows with what the clinic keeps on each patient, its tags and its latest review,
 * and the rows of one tag only when `tagId` is given: the clinic's tag, else NotFound (another
 * clinic's tag id is refused, never used).
 */
export async function annotatedPopulation(
  clinicId: string,
  rows: PopulationRow[],
  tagId?: string,
): Promise<{ rows: PopulationRow[]; tag: { id: string; name: string } | null }> {
  const tag = tagId ? await tagOf(clinicId, tagId) : null;
  const [tags, reviews] = await Promise.all([patientTagsOfClinic(clinicId), latestReviews(clinicId)]);
  const annotated = rows.map((r) => ({
    ...r,
    tags: tags.get(r.id) ?? [],
    lastReview: reviews.get(r.id) ?? null,
  }));
  return { rows: tag ? annotated.filter((r) => r.tags.some((t) => t.id === tag.id)) : annotated, tag };
}

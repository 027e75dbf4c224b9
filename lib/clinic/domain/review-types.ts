/** A patient's latest review as pages show it (declared apart from reviews.ts, a server module). */
export interface ReviewView {
  reviewerName: string | null;
  /** The period reviewed, yyyy-mm-dd on the patient's calendar. */
  periodStart: string;
  periodEnd: string;
  reviewedAt: string;
}

/** A tag as pages show it. */
export interface TagView {
  id: string;
  name: string;
}

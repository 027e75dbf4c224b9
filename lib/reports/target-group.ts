import "server-only";
import type { TargetGroup } from "@/lib/metrics/targets";

/**
 * PLACEHOLDER, the one spot to replace: the target group whose goals the summary API (the
 * patient's GET /api/reports/summary and the clinic's per-patient summary) judges. Every patient
 * is "standard" until the target group is stored per patient (issue 14, the work-group branch);
 * then this returns the patient's own group.
 */
export async function summaryTargetGroup(_patientUserId: string): Promise<TargetGroup> {
  return "standard";
}

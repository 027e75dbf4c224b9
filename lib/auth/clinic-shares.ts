import "server-only";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { type Db, db, schema } from "@/lib/db";

/**
 * A clinic share reads the patient's data through the connection it points at. Storing a new
 * connection is the sign-in's job, so keeping the shares pointed at it is too: here, where the
 * sign-in (sign-in.ts, service-account.ts) reaches it without depending on the clinic's modules,
 * which depend on auth.
 */

/**
 * After a patient connects their CGM account again (a disconnect deleted the old connection), the
 * shares they have not withdrawn follow the new connection.
 */
export async function relinkShares(
  patientUserId: string,
  connectionId: string,
  database?: Db,
): Promise<void> {
  const p = schema.clinicPatients;
  await (database ?? (await db()))
    .update(p)
    .set({ connectionId })
    .where(and(eq(p.patientUserId, patientUserId), isNull(p.withdrawnAt), isNotNull(p.acceptedAt)));
}

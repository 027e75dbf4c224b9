/**
 * A second (third, …) process for the cross-process refresh test: asks for a fresh access token
 * of one connection, N times at once, after its token was seen answering 401, and prints the
 * tokens it got as JSON. Run with `node --conditions react-server --import tsx`.
 */
import { accessToken } from "@/lib/service-client/tokens";

async function main() {
  const [connectionId, stale, count] = process.argv.slice(2);
  const tokens = await Promise.all(
    Array.from({ length: Number(count) }, () => accessToken(connectionId ?? "", stale)),
  );
  process.stdout.write(JSON.stringify(tokens));
  process.exit(0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

import { describe, expect, it } from "vitest";
import { edgeRefusal, readForm, readJson } from "./body";
import { INPUT_LIMITS, InputRefused } from "./input";

const OURS = "https://dashboard.example";
const FORM = "application/x-www-form-urlencoded";

const post = (body: BodyInit | null, headers: Record<string, string> = {}, url = `${OURS}/api/x`) =>
  new Request(url, {
    method: "POST",
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  });

/** A body sent in chunks without a Content-Length, as a client streaming it would. */
const streamed = (bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let sent = 0; sent < bytes; sent += 16 * 1024)
        controller.enqueue(new Uint8Array(16 * 1024).fill(97));
      controller.close();
    },
  });

async function refusal(p: Promise<unknown>): Promise<InputRefused> {
  const e = await p.then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(InputRefused);
  return e as InputRefused;
}

describe("readForm", () => {
  it("reads urlencoded and multipart forms", async () => {
    expect((await readForm(post("a=1&b=%C3%A9", { "Content-Type": FORM }))).get("b")).toBe("é");
    const multipart = new FormData();
    multipart.set("name", "Ann");
    expect((await readForm(post(multipart))).get("name")).toBe("Ann");
  });

  it("takes an empty body as an empty form, whatever its type", async () => {
    expect([...(await readForm(post(null)))]).toEqual([]);
    expect([...(await readForm(post("", { "Content-Type": "text/plain" })))]).toEqual([]);
  });

  it("refuses another type (415), broken multipart, a NUL and a file (400)", async () => {
    expect((await refusal(readForm(post("{}", { "Content-Type": "application/json" })))).status).toBe(415);
    const broken = await refusal(
      readForm(post("--x\r\nbroken", { "Content-Type": "multipart/form-data; boundary=x" })),
    );
    expect(broken.message).toMatch(/form body is malformed/);
    expect((await refusal(readForm(post("name=a%00b", { "Content-Type": FORM })))).message).toMatch(
      /"name" contains a NUL byte/,
    );
    const withFile = new FormData();
    withFile.set("upload", new Blob(["x"]), "x.txt");
    expect((await refusal(readForm(post(withFile)))).code).toBe("unexpected_file");
  });

  it("refuses a body over the limit, declared or streamed, with 413", async () => {
    const declared = post("a=1", { "Content-Type": FORM, "Content-Length": String(INPUT_LIMITS.body + 1) });
    expect((await refusal(readForm(declared))).status).toBe(413);
    const chunked = post(streamed(INPUT_LIMITS.body + 16 * 1024), { "Content-Type": FORM });
    expect((await refusal(readForm(chunked))).status).toBe(413);
  });
});

describe("readJson", () => {
  it("reads a JSON body of a JSON type", async () => {
    expect(await readJson(post('{"a":[1]}', { "Content-Type": "application/json" }))).toEqual({ a: [1] });
  });

  it("says a body is required, that it is not JSON, or that its type is wrong", async () => {
    expect((await refusal(readJson(post(null)))).message).toBe("A JSON request body is required.");
    const notJson = await refusal(readJson(post("{", { "Content-Type": "application/json" })));
    expect(notJson.message).toBe("The request body is not valid JSON.");
    expect((await refusal(readJson(post("{}", { "Content-Type": FORM })))).status).toBe(415);
  });

  it("refuses a control character in any string", async () => {
    const body = JSON.stringify({ targetRanges: [{ name: "a\u0000" }] });
    expect((await refusal(readJson(post(body, { "Content-Type": "application/json" })))).code).toBe(
      "invalid_characters",
    );
  });
});

describe("edgeRefusal", () => {
  const multipart = "multipart/form-data; boundary=x";

  it("lets an ordinary request and a well-formed multipart post of ours through", async () => {
    expect(await edgeRefusal(new Request(`${OURS}/clinic?clinic=abc`), OURS)).toBeNull();
    const ok = post('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', {
      "Content-Type": multipart,
      Origin: OURS,
    });
    expect(await edgeRefusal(ok, OURS)).toBeNull();
  });

  it("refuses a NUL in the URL, a cross-site action, a declared large body, an empty multipart body", async () => {
    expect((await edgeRefusal(new Request(`${OURS}/api/sharing/a%00b/withdraw`), OURS))?.code).toBe(
      "invalid_characters",
    );
    expect(
      (await edgeRefusal(post("--x--\r\n", { "Content-Type": multipart, Origin: "null" }), OURS))?.status,
    ).toBe(403);
    expect(
      (
        await edgeRefusal(
          post("a=1", { "Content-Length": String(INPUT_LIMITS.body + 1), "Content-Type": FORM }),
          OURS,
        )
      )?.status,
    ).toBe(413);
    expect((await edgeRefusal(post("", { "Content-Type": multipart }), OURS))?.message).toMatch(/malformed/);
  });

  it("leaves the body for the route to read", async () => {
    const req = post('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', {
      "Content-Type": multipart,
    });
    expect(await edgeRefusal(req, OURS)).toBeNull();
    expect((await readForm(req)).get("a")).toBe("b");
  });
});

import { NextResponse } from "next/server";
import { checkLocation, InputRefused } from "./input";

/**
 * The redirects our handlers answer with, the dashboard's and the sandbox's alike: never stored,
 * and refused (InputRefused, a 400) when the location, which may carry what a form sent, is too long
 * for the proxies in front of us.
 */
function redirect(location: string, status: 302 | 303, headers: Record<string, string>): NextResponse {
  const tooLong = checkLocation(location);
  if (tooLong) throw InputRefused.of(tooLong);
  return new NextResponse(null, {
    status,
    headers: { Location: location, "Cache-Control": "no-store", ...headers },
  });
}

/** 303 See Other: a form post's answer, which the browser follows with GET. */
export function seeOther(location: string, headers: Record<string, string> = {}): NextResponse {
  return redirect(location, 303, headers);
}

/** 302 Found: OAuth's redirect back to a client's redirect_uri, with the code or the error. */
export function found(location: string, headers: Record<string, string> = {}): NextResponse {
  return redirect(location, 302, headers);
}

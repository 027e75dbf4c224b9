/**
 * The most days whose readings one FHIR export carries: 31 days of 5-minute readings are about
 * 9,000 Observations (some 4 MB of JSON), which an EHR's transaction endpoint still takes in one
 * piece; the IG suggests chunking longer periods, and so does the answer to a longer one. Free of
 * server code, so the download link offers the readings only where the route takes them.
 */
export const FHIR_READINGS_MAX_DAYS = 31;

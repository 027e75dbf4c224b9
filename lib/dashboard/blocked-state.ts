/**
 * The states a patient page must design for besides data, named once so every page words them
 * the same way (components/patient/BlockedNotice.tsx, the clinic's ServiceStateNotice). Apart from
 * the server module that finds them (service-state.ts), so the components can name them.
 */
export type BlockedState = "not_connected" | "reconnect" | "unavailable" | "clinician" | "busy" | "refused";

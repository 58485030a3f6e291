// The market's rarely shown parts, imported statically on the SERVER only (a `.server` module is
// an empty module in the browser build): the server renders them into the HTML as usual (no-JS
// pages keep them), the browser loads each one's code when it is first drawn (./deferred.tsx).
export { CampusSelector } from "~/components/CampusSelector";
export { AssistDialog } from "./AssistDialog";
export { InfoPanel } from "./InfoPanel";

import { redirect } from "next/navigation";

/** The console has no landing page of its own: it opens on the sandbox list. */
export default function Home(): never {
  redirect("/sandboxes");
}

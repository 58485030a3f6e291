import { redirect } from "@remix-run/node";

// The old "coming soon" address of grades, exams and GPA: grades now live at /backpack/grades.
export function loader() {
  return redirect("/backpack/grades");
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const FULL_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const FULL_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const two = (value: number) => String(value).padStart(2, "0");

/** strftime for the directives `date +FORMAT` is used with; containers run in UTC. */
export function formatDate(date: Date, format: string): string {
  return format.replace(/%(:z|[%a-zA-Z])/g, (whole: string, directive: string) => {
    switch (directive) {
      case "%":
        return "%";
      case "a":
        return DAYS[date.getUTCDay()] ?? "";
      case "A":
        return FULL_DAYS[date.getUTCDay()] ?? "";
      case "b":
      case "h":
        return MONTHS[date.getUTCMonth()] ?? "";
      case "B":
        return FULL_MONTHS[date.getUTCMonth()] ?? "";
      case "d":
        return two(date.getUTCDate());
      case "e":
        return String(date.getUTCDate()).padStart(2, " ");
      case "m":
        return two(date.getUTCMonth() + 1);
      case "y":
        return two(date.getUTCFullYear() % 100);
      case "Y":
        return String(date.getUTCFullYear());
      case "H":
        return two(date.getUTCHours());
      case "I":
        return two(((date.getUTCHours() + 11) % 12) + 1);
      case "p":
        return date.getUTCHours() < 12 ? "AM" : "PM";
      case "M":
        return two(date.getUTCMinutes());
      case "S":
        return two(date.getUTCSeconds());
      case "N":
        return String(date.getUTCMilliseconds() * 1_000_000).padStart(9, "0");
      case "s":
        return String(Math.floor(date.getTime() / 1000));
      case "j":
        return String(Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1).padStart(3, "0");
      case "u":
        return String(date.getUTCDay() === 0 ? 7 : date.getUTCDay());
      case "w":
        return String(date.getUTCDay());
      case "Z":
        return "UTC";
      case "z":
        return "+0000";
      case ":z":
        return "+00:00";
      case "F":
        return `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
      case "T":
        return `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
      case "D":
        return `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${two(date.getUTCFullYear() % 100)}`;
      case "R":
        return `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`;
      case "n":
        return "\n";
      case "t":
        return "\t";
      default:
        return whole;
    }
  });
}

import type { Config } from "tailwindcss";

// Theme colours are CSS variables set on <html data-theme=…> (see app/tailwind.css), so the
// server renders the chosen theme and no JavaScript is needed to switch it.
export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: {
          DEFAULT: "rgb(var(--brand) / <alpha-value>)",
          dark: "rgb(var(--brand-dark) / <alpha-value>)",
          soft: "rgb(var(--brand-soft) / <alpha-value>)",
        },
      },
      fontFamily: {
        sans: ["-apple-system", "BlinkMacSystemFont", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "sans-serif"],
      },
    },
  },
  plugins: [],
} satisfies Config;

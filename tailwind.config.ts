import type { Config } from 'tailwindcss';

/** Loaded by src/ui/styles.css through `@config`. Colours are CSS variables set per theme there. */
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  theme: {
    screens: {
      sm: '640px',
      md: '768px',
      // SPEC 9: below 992 px the sidebar becomes a drawer
      lg: '992px',
      xl: '1280px',
    },
    extend: {
      fontFamily: {
        sans: ['Inter', 'system-ui', '"Noto Sans"', '"Noto Sans Arabic"', '"Noto Sans CJK SC"', 'sans-serif'],
      },
    },
  },
} satisfies Config;

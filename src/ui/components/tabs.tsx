import * as TabsPrimitive from '@radix-ui/react-tabs';
import { useState, type ComponentProps } from 'react';
import { cn } from '../lib/cn';

/**
 * Radix tabs; the list follows the reading direction (arrow keys too, through the Direction provider).
 * On a narrow screen the tabs share the width and a long label wraps between its words; a tab is never
 * narrower than its longest word (so no label runs into its neighbour or is cut), and tabs that do not
 * fit on one row go on to a second.
 */
export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List className={cn('flex max-w-full flex-wrap gap-x-1 gap-y-1 border-b border-border', className)} {...props} />;
}

/**
 * A tab. Its focus ring shows for keyboard focus only: Radix moves focus to a clicked tab itself,
 * which Chromium counts as :focus-visible, so a tab focused by a pointer says so (data-pointer)
 * until a key is pressed on it or it loses focus.
 */
export function TabsTrigger({ className, onPointerDown, onKeyDown, onBlur, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  const [pointer, setPointer] = useState(false);
  return (
    <TabsPrimitive.Trigger
      className={cn(
        '-mb-px flex-auto cursor-pointer border-b-2 text-center sm:flex-none border-transparent px-2 py-2 sm:px-3 text-sm font-medium text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-primary data-[pointer]:outline-none data-[state=active]:border-primary data-[state=active]:text-foreground',
        className,
      )}
      data-pointer={pointer ? '' : undefined}
      onPointerDown={(e) => {
        setPointer(true);
        onPointerDown?.(e);
      }}
      onKeyDown={(e) => {
        setPointer(false);
        onKeyDown?.(e);
      }}
      onBlur={(e) => {
        setPointer(false);
        onBlur?.(e);
      }}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn('pt-4 focus-visible:outline-none', className)} {...props} />;
}

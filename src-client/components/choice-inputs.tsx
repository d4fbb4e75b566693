import type { MultiSelectProps, SelectProps, TagsInputProps } from '@mantine/core'
import { TextInput } from '@mantine/core'
import { type ComponentProps, type ComponentType, lazy, Suspense } from 'react'

/**
 * Mantine's select, multi-select and tags input (its combobox and the pills they share) load on
 * first use: the operator's first screen has none, and they are about a fifth of the UI kit on
 * the wire (bench client). The service worker precaches them for a tablet that goes offline.
 */
const load = () => import('./choice-inputs-mantine')
// Typed with string values as the app uses them (lazy() would widen Mantine's generic value type).
const LazySelect: ComponentType<SelectProps> = lazy(() => load().then((m) => ({ default: m.Select as ComponentType<SelectProps> })))
const LazyMultiSelect: ComponentType<MultiSelectProps> = lazy(() => load().then((m) => ({ default: m.MultiSelect as ComponentType<MultiSelectProps> })))
const LazyTagsInput: ComponentType<TagsInputProps> = lazy(() => load().then((m) => ({ default: m.TagsInput })))

type Shown = {
  label?: React.ReactNode
  description?: React.ReactNode
  withAsterisk?: boolean
  size?: ComponentProps<typeof TextInput>['size']
  maw?: ComponentProps<typeof TextInput>['maw']
  w?: ComponentProps<typeof TextInput>['w']
  value?: unknown
}

/** While the input loads, the same label and value in a disabled field: the layout does not jump. */
function Pending({ label, description, withAsterisk, size, maw, w, value }: Shown) {
  const text = Array.isArray(value) ? value.join(', ') : value == null ? '' : String(value)
  return <TextInput label={label} description={description} withAsterisk={withAsterisk} size={size} maw={maw} w={w} value={text} disabled readOnly />
}

export function Select(props: SelectProps) {
  return (
    <Suspense fallback={<Pending {...props} />}>
      <LazySelect {...props} />
    </Suspense>
  )
}

export function MultiSelect(props: MultiSelectProps) {
  return (
    <Suspense fallback={<Pending {...props} />}>
      <LazyMultiSelect {...props} />
    </Suspense>
  )
}

export function TagsInput(props: TagsInputProps) {
  return (
    <Suspense fallback={<Pending {...props} />}>
      <LazyTagsInput {...props} />
    </Suspense>
  )
}

// The combobox inputs, in a module of their own so that choice-inputs.tsx can load them on first use.
export { MultiSelect, Select, TagsInput } from '@mantine/core'

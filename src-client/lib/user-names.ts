type Named = { name: string; surname: string; username: string }

/** Two letters for an avatar: the initials of name and surname, else the username's first letter. */
export function initialsOf(user: Named): string {
  return `${user.name[0] ?? ''}${user.surname[0] ?? ''}`.toUpperCase() || user.username[0]?.toUpperCase() || '?'
}

/** "Name Surname", or the username when both are empty. */
export function displayNameOf(user: Named): string {
  return `${user.name} ${user.surname}`.trim() || user.username
}
